# run: tabula replay log.json --ruleset $NIM --unverified
# exit: 0
# stdout: replay ok: 11 decisions
# stdout: not verified
