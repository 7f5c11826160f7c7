# run: tabula replay log.json --ruleset $NIM
# exit: 0
# stdout: replay ok: 11 decisions
