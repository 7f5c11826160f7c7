# `--variant /etc/passwd` is a path, but not a variant .yaml file (never read)
# run: tabula check ruleset --variant /etc/passwd
# exit: 1
# stderr: tabula::unknown_file_type
# stderr: `/etc/passwd` is not a .yaml file
# absent: root:
