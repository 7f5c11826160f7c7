# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log ends too early
