#!/bin/sh
# A cardarena player in plain POSIX sh (no other program): it answers every decision with its
# first legal action, which protocol version 1 lists first in each decide message
# ({"type":"decide","legal":[{"id":N,...). The protocol is docs/protocol.md.
#
#   python evaluate.py --game flip6 --agents 'exec:sh examples/clients/first_legal.sh' ev threshold random
while IFS= read -r line; do
    case $line in
    '{"type":"decide"'*)
        id=${line#*'"legal":[{"id":'}
        echo "${id%%,*}"
        ;;
    '{"type":"bye"'*) exit 0 ;;
    esac
done
