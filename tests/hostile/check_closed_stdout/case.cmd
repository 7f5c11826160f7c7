# `check R | true`, stdout closed before anything is read
# run: tabula check $NIM
# exit: 0
# close-stdout: 0
