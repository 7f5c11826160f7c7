# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: has changed since the log was written
# absent: root:
