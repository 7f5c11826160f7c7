# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: invalid value: integer `-1`, expected u64
# at: log.json:5:
