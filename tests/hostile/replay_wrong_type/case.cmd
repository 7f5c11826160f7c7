# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: not a valid game log: invalid type: string "two"
# at: log.json:4:
