/* PLACEHOLDER */ int pf_registry_placeholder;
