# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: has no hash in the log's `variant_hashes`
# at: log.json:4:5
