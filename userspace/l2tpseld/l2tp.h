/* SPDX-License-Identifier: GPL-2.0 */
/*
 * L2TPv2 wire constants (RFC 2661), all in one place, with code->name
 * tables for logs.  Section numbers below are those of RFC 2661.
 */
#ifndef L2D_L2TP_H
#define L2D_L2TP_H

#include <stdint.h>

#define L2TP_UDP_PORT		1701	/* §8.1 */
#define L2TP_VERSION		2	/* §3.1: Ver MUST be 2 */

/* §3.1 header: |T|L|x|x|S|x|O|P|x|x|x|x| Ver | */
#define L2TP_HDR_T		0x8000	/* control message */
#define L2TP_HDR_L		0x4000	/* Length present */
#define L2TP_HDR_S		0x0800	/* Ns, Nr present */
#define L2TP_HDR_O		0x0200	/* Offset Size present */
#define L2TP_HDR_P		0x0100	/* priority (data only) */
#define L2TP_HDR_VER_MASK	0x000f
#define L2TP_CTRL_HDR_LEN	12	/* flags, Length, tid, sid, Ns, Nr */
#define L2TP_CTRL_FLAGS		(L2TP_HDR_T | L2TP_HDR_L | L2TP_HDR_S | L2TP_VERSION)

/* §4.1 AVP header: |M|H| rsvd(4) | Length(10) | Vendor ID | Attribute Type | */
#define L2TP_AVP_M		0x8000
#define L2TP_AVP_H		0x4000
#define L2TP_AVP_RSVD		0x3c00
#define L2TP_AVP_LEN_MASK	0x03ff
#define L2TP_AVP_HDR_LEN	6
#define L2TP_AVP_MAX_LEN	1023	/* 10-bit Length field */
#define L2TP_AVP_MAX_VALUE	(L2TP_AVP_MAX_LEN - L2TP_AVP_HDR_LEN)
#define L2TP_VENDOR_IETF	0

/* §3.2 control message types */
enum l2tp_msg_type {
	L2TP_MSG_SCCRQ		= 1,
	L2TP_MSG_SCCRP		= 2,
	L2TP_MSG_SCCCN		= 3,
	L2TP_MSG_STOPCCN	= 4,
	L2TP_MSG_HELLO		= 6,
	L2TP_MSG_OCRQ		= 7,
	L2TP_MSG_OCRP		= 8,
	L2TP_MSG_OCCN		= 9,
	L2TP_MSG_ICRQ		= 10,
	L2TP_MSG_ICRP		= 11,
	L2TP_MSG_ICCN		= 12,
	L2TP_MSG_CDN		= 14,
	L2TP_MSG_WEN		= 15,
	L2TP_MSG_SLI		= 16,
	/* RFC 5515: Connect-Speed-Update-Notification, -Request */
	L2TP_MSG_CSUN		= 28,
	L2TP_MSG_CSURQ		= 29,
	L2TP_MSG_MAX		= 29,
};

/* §4.4 attribute types (vendor 0) */
enum l2tp_avp_type {
	L2TP_AVP_MESSAGE_TYPE		= 0,
	L2TP_AVP_RESULT_CODE		= 1,
	L2TP_AVP_PROTOCOL_VERSION	= 2,
	L2TP_AVP_FRAMING_CAPS		= 3,
	L2TP_AVP_BEARER_CAPS		= 4,
	L2TP_AVP_TIE_BREAKER		= 5,
	L2TP_AVP_FIRMWARE_REVISION	= 6,
	L2TP_AVP_HOST_NAME		= 7,
	L2TP_AVP_VENDOR_NAME		= 8,
	L2TP_AVP_ASSIGNED_TUNNEL_ID	= 9,
	L2TP_AVP_RECEIVE_WINDOW_SIZE	= 10,
	L2TP_AVP_CHALLENGE		= 11,
	L2TP_AVP_Q931_CAUSE		= 12,
	L2TP_AVP_CHALLENGE_RESPONSE	= 13,
	L2TP_AVP_ASSIGNED_SESSION_ID	= 14,
	L2TP_AVP_CALL_SERIAL_NUMBER	= 15,
	L2TP_AVP_MINIMUM_BPS		= 16,
	L2TP_AVP_MAXIMUM_BPS		= 17,
	L2TP_AVP_BEARER_TYPE		= 18,
	L2TP_AVP_FRAMING_TYPE		= 19,
	/* 20 is not assigned by RFC 2661 */
	L2TP_AVP_CALLED_NUMBER		= 21,
	L2TP_AVP_CALLING_NUMBER		= 22,
	L2TP_AVP_SUB_ADDRESS		= 23,
	L2TP_AVP_TX_CONNECT_SPEED	= 24,
	L2TP_AVP_PHYSICAL_CHANNEL_ID	= 25,
	L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ = 26,
	L2TP_AVP_LAST_SENT_LCP_CONFREQ	= 27,
	L2TP_AVP_LAST_RCVD_LCP_CONFREQ	= 28,
	L2TP_AVP_PROXY_AUTHEN_TYPE	= 29,
	L2TP_AVP_PROXY_AUTHEN_NAME	= 30,
	L2TP_AVP_PROXY_AUTHEN_CHALLENGE	= 31,
	L2TP_AVP_PROXY_AUTHEN_ID	= 32,
	L2TP_AVP_PROXY_AUTHEN_RESPONSE	= 33,
	L2TP_AVP_CALL_ERRORS		= 34,
	L2TP_AVP_ACCM			= 35,
	L2TP_AVP_RANDOM_VECTOR		= 36,
	L2TP_AVP_PRIVATE_GROUP_ID	= 37,
	L2TP_AVP_RX_CONNECT_SPEED	= 38,
	L2TP_AVP_SEQUENCING_REQUIRED	= 39,
	L2TP_AVP_TYPE_COUNT		= 40,
};

/* §4.4.3 Protocol Version AVP value: version 1, revision 0 */
#define L2TP_PROTOCOL_VERSION	0x0100

/* §4.4.3 Framing / Bearer capability bits (also Framing / Bearer Type) */
#define L2TP_FRAMING_SYNC	0x00000001
#define L2TP_FRAMING_ASYNC	0x00000002
#define L2TP_BEARER_DIGITAL	0x00000001
#define L2TP_BEARER_ANALOG	0x00000002

/* §5.8: window assumed when the peer sends no Receive Window Size AVP */
#define L2TP_DEFAULT_RWS	4

/* §4.4.2 Result Code values in StopCCN */
enum l2tp_stopccn_result {
	L2TP_STOPCCN_CLEAR		= 1,
	L2TP_STOPCCN_GENERAL_ERROR	= 2,
	L2TP_STOPCCN_ALREADY_EXISTS	= 3,
	L2TP_STOPCCN_NOT_AUTHORIZED	= 4,
	L2TP_STOPCCN_BAD_PROTOCOL	= 5,	/* error code: highest version */
	L2TP_STOPCCN_SHUTTING_DOWN	= 6,
	L2TP_STOPCCN_FSM_ERROR		= 7,
};

/* §4.4.2 Result Code values in CDN */
enum l2tp_cdn_result {
	L2TP_CDN_LOST_CARRIER		= 1,
	L2TP_CDN_GENERAL_ERROR		= 2,
	L2TP_CDN_ADMIN			= 3,
	L2TP_CDN_NO_FACILITIES_TEMP	= 4,
	L2TP_CDN_NO_FACILITIES_PERM	= 5,
	L2TP_CDN_INVALID_DEST		= 6,
	L2TP_CDN_NO_CARRIER		= 7,
	L2TP_CDN_BUSY			= 8,
	L2TP_CDN_NO_DIALTONE		= 9,
	L2TP_CDN_TIMEOUT		= 10,
	L2TP_CDN_NO_FRAMING		= 11,
};

/* §4.4.2 General Error codes */
enum l2tp_error_code {
	L2TP_ERR_NONE			= 0,
	L2TP_ERR_NO_CONTROL_CONNECTION	= 1,
	L2TP_ERR_BAD_LENGTH		= 2,
	L2TP_ERR_BAD_VALUE		= 3,
	L2TP_ERR_NO_RESOURCES		= 4,
	L2TP_ERR_BAD_SESSION_ID		= 5,
	L2TP_ERR_VENDOR			= 6,
	L2TP_ERR_TRY_ANOTHER		= 7,
	L2TP_ERR_UNKNOWN_MANDATORY_AVP	= 8,
};

/* Code -> name, for logs; never NULL ("unknown" for codes not defined). */
const char *l2tp_msg_name(unsigned int type);
const char *l2tp_avp_name(unsigned int type);
const char *l2tp_stopccn_result_name(unsigned int code);
const char *l2tp_cdn_result_name(unsigned int code);
const char *l2tp_error_name(unsigned int code);

/* A session message belongs to one call (§4.1: unknown M AVP -> CDN). */
int l2tp_msg_is_session(unsigned int type);

#endif
