# run: tabula check $NIM --set start
# exit: 2
# stderr: is not NAME=VALUE
