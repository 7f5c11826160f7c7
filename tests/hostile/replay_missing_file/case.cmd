# run: tabula replay nope.json --ruleset $NIM
# exit: 1
# stderr: cannot read `nope.json`
