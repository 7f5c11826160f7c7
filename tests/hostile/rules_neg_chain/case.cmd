# 300 `-` in a row
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 256 levels deep
