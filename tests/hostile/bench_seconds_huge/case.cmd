# run: tabula bench $NIM --seconds 1e300
# exit: 1
# stderr: --seconds must be a number from 0 to 86400
