# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the result differs: the log says no scores
