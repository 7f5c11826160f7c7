# run: tabula replay log.json
# exit: 1
# stderr: the ruleset `/etc` is an absolute path outside
# stderr: --ruleset <DIR>
# at: log.json:2:14
