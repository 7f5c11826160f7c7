# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: not valid JSON
# at: log.json:3:16
