# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: decision 2 (`banana`
# at: log.json:8:5
