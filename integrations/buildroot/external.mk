include $(sort $(wildcard $(BR2_EXTERNAL_BOARDC_PATH)/package/*/*.mk))
