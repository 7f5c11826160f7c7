# run: tabula simulate $HOSTILE/_rulesets/loop --players 2 --agents greedy,greedy --games 1 --max-decisions 50000
# exit: 0
# stderr: warning: 1 game had not ended after 50000 decisions and was given up
# stdout: unfinished:     1 game given up after 50000 decisions
# timeout: 20
