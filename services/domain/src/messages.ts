/** Message catalogue: the spec's exact wording, used by server and console alike. */
export const MSG = {
  generic: 'Sorry an internal error occurred. Please try again later.',
  authFailed: 'Failed to authenticate. Please try again.',
  locked: 'Your account is locked. Please contact Client Services for further assistance.',
  resetEmailSent:
    'The password reset email has been sent! Please check your email and follow the instructions in the email.',
  resetEmailFailed: 'Failed to send email. Please try again later.',
  contactIt: 'Please contact IT to reset your password.',
  changePasswordOk: 'Change password successfully.',
  changePasswordFailed:
    'Failed to change password. (Note: Your new password cannot be any of your four previous passwords.)',
  userAdded: 'New user added successfully.',
  userAddFailed: 'Failed to create new user.',
  userUpdated: 'Update user detail successfully.',
  userUpdateFailed: 'Failed to update user detail.',
  incorrectPassword: 'Incorrect password. Try again.',
  required: 'This field is required',
  unauthorized: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do this.',
  notFound: 'The requested record was not found.',
  conflict: 'This record was changed by someone else. Reload it and try again.',
  attachmentTooLarge: 'The file selected exceeds the file size limit of 50MB. The file will not be attached.',
  uploadFailed: 'Error During Upload. Please try again.',
} as const;
