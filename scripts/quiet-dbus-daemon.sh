#!/bin/sh
# The session bus daemon of Paydesk's private keyring session (dbus-run-session --dbus-daemon=this): its notices ("Failed
# to set fd limit", "Activating service ...") go to a log file beside Paydesk's data, not between Paydesk's own lines.
exec dbus-daemon "$@" 2>"${PAYDESK_DBUS_LOG:-/dev/null}"
