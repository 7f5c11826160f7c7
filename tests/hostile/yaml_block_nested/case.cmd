# 300 nested YAML mappings, indented one column each (5,000 overflowed the stack of a debug build)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: YAML indented past column 256
