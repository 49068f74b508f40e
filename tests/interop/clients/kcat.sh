#!/bin/sh
# kcat (Debian package, bundles its own librdkafka build): metadata listing.
kcat -V | sed -n 4p
exec kcat -b "$1" -L -m 2
