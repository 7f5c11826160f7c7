# `--variant /etc/passwd`
# run: tabula check ruleset --variant /etc/passwd
# exit: 1
# stderr: tabula::path_outside
# stderr: `/etc/passwd` is not a variant name
# absent: root:
