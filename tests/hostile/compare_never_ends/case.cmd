# run: tabula compare $HOSTILE/_rulesets/loop --games 2 --max-decisions 300
# exit: 0
# stderr: baseline: 2 games had not ended after 300 decisions
# stdout: unfinished games:
