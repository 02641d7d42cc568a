# Sourced by the benches that give the daemon a system bus of its own:
# start_private_bus DIR writes a bus configuration that lets everyone do
# everything into DIR, starts dbus-daemon on DIR/bus.sock (its pid in
# bus_pid) and points DBUS_SYSTEM_BUS_ADDRESS and RUNTIME_DIRECTORY there.
start_private_bus() {
        cat >"$1/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$1/bus.sock</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
        dbus-daemon --config-file="$1/bus.conf" --nofork --nopidfile &
        bus_pid=$!
        export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$1/bus.sock"
        export RUNTIME_DIRECTORY="$1/run"
        sleep 0.5
}
