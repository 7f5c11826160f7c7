# run: tabula scenario --ruleset $NIM /dev/zero
# exit: 1
# stderr: too large for a scenario
