# run: tabula bench $NIM --seconds inf
# exit: 1
# stderr: --seconds must be a number from 0 to 86400
