# run: tabula replay /dev/zero --ruleset $NIM
# exit: 1
# stderr: too large for a game log
