/** The AYON server API version Pipewright speaks; clients gate features on it. */
export const API_VERSION = '1.11.3';
