# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the variant file `../../../etc/passwd` has no hash in the log
# at: log.json:4:5
