# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log has 18446744073709551615 players
