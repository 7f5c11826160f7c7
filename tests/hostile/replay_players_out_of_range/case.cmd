# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log has 99 players but Nim is played by 2 to 3
# at: log.json:4:14
