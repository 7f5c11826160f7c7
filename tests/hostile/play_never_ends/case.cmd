# run: tabula play $HOSTILE/_rulesets/loop --players 2 --max-decisions 12 --log game.json
# exit: 1
# stdin: input.txt
# stderr: has not ended after 12 decisions
# writes: game.json
