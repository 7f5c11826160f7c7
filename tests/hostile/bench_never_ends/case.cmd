# run: tabula bench $HOSTILE/_rulesets/loop --seconds 0 --max-decisions 300
# exit: 0
# stderr: warning: 1 of 1 games had not ended after 300 decisions
# stdout: games/s:
