# run: tabula simulate $HOSTILE/_rulesets/divzero --games 3 --json out.json
# exit: 1
# stderr: game 0 (seed
# stderr: division by zero
# no-writes: out.json
