# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: decision 2 (`9`
# stderr: the legal decisions are: 1, 2, 3
# at: log.json:8:5
