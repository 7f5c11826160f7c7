# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log has no `state_hash`
