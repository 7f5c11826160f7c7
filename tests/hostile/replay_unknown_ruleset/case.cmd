# run: tabula replay log.json
# exit: 1
# stderr: no ruleset
