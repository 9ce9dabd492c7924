/* PLACEHOLDER */ int pf_driver_placeholder;
