# run: tabula simulate $HOSTILE/_rulesets/loop --games 3 --max-decisions 500 --json out.json --csv out.csv
# exit: 0
# stderr: warning: 3 games had not ended after 500 decisions and were given up (the first: game 0, seed
# stdout: unfinished:     3 games
# writes: out.json
# writes: out.csv
