dist_man_MANS += man/bigLittled.8 man/bigLittle.conf.5 man/blsim.1 man/switchctl.1
