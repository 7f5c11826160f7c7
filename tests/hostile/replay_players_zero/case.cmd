# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log has 0 players
# at: log.json:4:14
