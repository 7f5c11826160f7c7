# run: tabula simulate $HOSTILE/_rulesets/loop --players 2 --agents mcts:iterations=20,mcts:iterations=20 --games 1 --max-decisions 200
# exit: 0
# stderr: warning: 1 game had not ended after 200 decisions and was given up
# stdout: unfinished:     1 game given up after 200 decisions
