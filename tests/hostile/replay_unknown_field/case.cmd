# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: unknown field `extra`
