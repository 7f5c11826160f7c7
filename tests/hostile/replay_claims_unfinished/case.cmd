# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log says the game is not over, but after its 11 decisions it is, with p1 10, p2 0
