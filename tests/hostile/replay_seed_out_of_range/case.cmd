# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: not a valid game log
# at: log.json:5:
