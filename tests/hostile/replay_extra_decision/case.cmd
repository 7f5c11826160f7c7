# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: decision 12 (`1`): the game is already over after 11 decisions
# at: log.json:18:5
