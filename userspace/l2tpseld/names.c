// SPDX-License-Identifier: GPL-2.0
/* Code -> name tables of RFC 2661 constants, for logs. */
#include <stddef.h>

#include "l2tp.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const msg_names[] = {
	[L2TP_MSG_SCCRQ] = "SCCRQ",	[L2TP_MSG_SCCRP] = "SCCRP",
	[L2TP_MSG_SCCCN] = "SCCCN",	[L2TP_MSG_STOPCCN] = "StopCCN",
	[L2TP_MSG_HELLO] = "HELLO",	[L2TP_MSG_OCRQ] = "OCRQ",
	[L2TP_MSG_OCRP] = "OCRP",	[L2TP_MSG_OCCN] = "OCCN",
	[L2TP_MSG_ICRQ] = "ICRQ",	[L2TP_MSG_ICRP] = "ICRP",
	[L2TP_MSG_ICCN] = "ICCN",	[L2TP_MSG_CDN] = "CDN",
	[L2TP_MSG_WEN] = "WEN",		[L2TP_MSG_SLI] = "SLI",
	[L2TP_MSG_CSUN] = "CSUN",	[L2TP_MSG_CSURQ] = "CSURQ",
};

static const char *const avp_names[] = {
	[L2TP_AVP_MESSAGE_TYPE] = "Message Type",
	[L2TP_AVP_RESULT_CODE] = "Result Code",
	[L2TP_AVP_PROTOCOL_VERSION] = "Protocol Version",
	[L2TP_AVP_FRAMING_CAPS] = "Framing Capabilities",
	[L2TP_AVP_BEARER_CAPS] = "Bearer Capabilities",
	[L2TP_AVP_TIE_BREAKER] = "Tie Breaker",
	[L2TP_AVP_FIRMWARE_REVISION] = "Firmware Revision",
	[L2TP_AVP_HOST_NAME] = "Host Name",
	[L2TP_AVP_VENDOR_NAME] = "Vendor Name",
	[L2TP_AVP_ASSIGNED_TUNNEL_ID] = "Assigned Tunnel ID",
	[L2TP_AVP_RECEIVE_WINDOW_SIZE] = "Receive Window Size",
	[L2TP_AVP_CHALLENGE] = "Challenge",
	[L2TP_AVP_Q931_CAUSE] = "Q.931 Cause Code",
	[L2TP_AVP_CHALLENGE_RESPONSE] = "Challenge Response",
	[L2TP_AVP_ASSIGNED_SESSION_ID] = "Assigned Session ID",
	[L2TP_AVP_CALL_SERIAL_NUMBER] = "Call Serial Number",
	[L2TP_AVP_MINIMUM_BPS] = "Minimum BPS",
	[L2TP_AVP_MAXIMUM_BPS] = "Maximum BPS",
	[L2TP_AVP_BEARER_TYPE] = "Bearer Type",
	[L2TP_AVP_FRAMING_TYPE] = "Framing Type",
	[L2TP_AVP_CALLED_NUMBER] = "Called Number",
	[L2TP_AVP_CALLING_NUMBER] = "Calling Number",
	[L2TP_AVP_SUB_ADDRESS] = "Sub-Address",
	[L2TP_AVP_TX_CONNECT_SPEED] = "(Tx) Connect Speed",
	[L2TP_AVP_PHYSICAL_CHANNEL_ID] = "Physical Channel ID",
	[L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ] = "Initial Received LCP CONFREQ",
	[L2TP_AVP_LAST_SENT_LCP_CONFREQ] = "Last Sent LCP CONFREQ",
	[L2TP_AVP_LAST_RCVD_LCP_CONFREQ] = "Last Received LCP CONFREQ",
	[L2TP_AVP_PROXY_AUTHEN_TYPE] = "Proxy Authen Type",
	[L2TP_AVP_PROXY_AUTHEN_NAME] = "Proxy Authen Name",
	[L2TP_AVP_PROXY_AUTHEN_CHALLENGE] = "Proxy Authen Challenge",
	[L2TP_AVP_PROXY_AUTHEN_ID] = "Proxy Authen ID",
	[L2TP_AVP_PROXY_AUTHEN_RESPONSE] = "Proxy Authen Response",
	[L2TP_AVP_CALL_ERRORS] = "Call Errors",
	[L2TP_AVP_ACCM] = "ACCM",
	[L2TP_AVP_RANDOM_VECTOR] = "Random Vector",
	[L2TP_AVP_PRIVATE_GROUP_ID] = "Private Group ID",
	[L2TP_AVP_RX_CONNECT_SPEED] = "Rx Connect Speed",
	[L2TP_AVP_SEQUENCING_REQUIRED] = "Sequencing Required",
};

static const char *const stopccn_names[] = {
	[L2TP_STOPCCN_CLEAR] = "general request to clear control connection",
	[L2TP_STOPCCN_GENERAL_ERROR] = "general error",
	[L2TP_STOPCCN_ALREADY_EXISTS] = "control channel already exists",
	[L2TP_STOPCCN_NOT_AUTHORIZED] = "requester not authorized",
	[L2TP_STOPCCN_BAD_PROTOCOL] = "protocol version not supported",
	[L2TP_STOPCCN_SHUTTING_DOWN] = "requester is being shut down",
	[L2TP_STOPCCN_FSM_ERROR] = "finite state machine error",
};

static const char *const cdn_names[] = {
	[L2TP_CDN_LOST_CARRIER] = "loss of carrier",
	[L2TP_CDN_GENERAL_ERROR] = "reason in error code",
	[L2TP_CDN_ADMIN] = "administrative reasons",
	[L2TP_CDN_NO_FACILITIES_TEMP] = "no facilities (temporary)",
	[L2TP_CDN_NO_FACILITIES_PERM] = "no facilities (permanent)",
	[L2TP_CDN_INVALID_DEST] = "invalid destination",
	[L2TP_CDN_NO_CARRIER] = "no carrier detected",
	[L2TP_CDN_BUSY] = "busy signal",
	[L2TP_CDN_NO_DIALTONE] = "no dial tone",
	[L2TP_CDN_TIMEOUT] = "not established in time",
	[L2TP_CDN_NO_FRAMING] = "no framing detected",
};

static const char *const error_names[] = {
	[L2TP_ERR_NONE] = "no general error",
	[L2TP_ERR_NO_CONTROL_CONNECTION] = "no control connection",
	[L2TP_ERR_BAD_LENGTH] = "length is wrong",
	[L2TP_ERR_BAD_VALUE] = "field value out of range",
	[L2TP_ERR_NO_RESOURCES] = "insufficient resources",
	[L2TP_ERR_BAD_SESSION_ID] = "session ID invalid",
	[L2TP_ERR_VENDOR] = "vendor-specific error",
	[L2TP_ERR_TRY_ANOTHER] = "try another",
	[L2TP_ERR_UNKNOWN_MANDATORY_AVP] = "unknown mandatory AVP",
};

static const char *lookup(const char *const *table, size_t n, unsigned int code)
{
	if (code < n && table[code])
		return table[code];
	return "unknown";
}

const char *l2tp_msg_name(unsigned int type)
{
	return lookup(msg_names, ARRAY_LEN(msg_names), type);
}

const char *l2tp_avp_name(unsigned int type)
{
	return lookup(avp_names, ARRAY_LEN(avp_names), type);
}

const char *l2tp_stopccn_result_name(unsigned int code)
{
	return lookup(stopccn_names, ARRAY_LEN(stopccn_names), code);
}

const char *l2tp_cdn_result_name(unsigned int code)
{
	return lookup(cdn_names, ARRAY_LEN(cdn_names), code);
}

const char *l2tp_error_name(unsigned int code)
{
	return lookup(error_names, ARRAY_LEN(error_names), code);
}

int l2tp_msg_is_session(unsigned int type)
{
	switch (type) {
	case L2TP_MSG_OCRQ: case L2TP_MSG_OCRP: case L2TP_MSG_OCCN:
	case L2TP_MSG_ICRQ: case L2TP_MSG_ICRP: case L2TP_MSG_ICCN:
	case L2TP_MSG_CDN: case L2TP_MSG_WEN: case L2TP_MSG_SLI:
		return 1;
	default:
		return 0;
	}
}
