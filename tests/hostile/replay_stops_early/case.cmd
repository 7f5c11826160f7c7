# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the log ends after 3 decisions, but the game is not over: p2 is to decide "take"; the log says it ended with p1 10, p2 0
# absent: Some(
# at: log.json:11:13
