# run: tabula replay log.json
# exit: 1
# stderr: climbs out of the directory with `..`
# at: log.json:2:14
