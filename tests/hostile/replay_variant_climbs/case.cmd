# run: tabula replay log.json --ruleset $NIM
# exit: 1
# stderr: the variant `../../../etc/passwd` is not a plain name
# at: log.json:4:5
