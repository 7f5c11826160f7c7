# 300 nested flow brackets in YAML
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: YAML nested too deeply
