# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log has neither `result` nor `state_hash`
# stderr: --unverified
# absent: replay ok
