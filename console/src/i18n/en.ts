import { MSG } from '@onco/domain';

/** English texts of the shell, sign-in, password, maintenance and terms screens (spec wording where given). */
export const appEn = {
  app: {
    name: 'Clinical Portal',
    company: 'OncoTRF Diagnostics',
    menu: {
      home: 'Home',
      orders: 'Orders',
      patients: 'Patients',
      kits: 'Kits',
      tests: 'Tests',
      billing: 'Billing',
      messages: 'Messages',
      box: 'Document Uploads',
      users: 'Users',
    },
    header: {
      tagline: 'CANCER IS PERSONAL',
      beta: 'Beta',
      help: 'Help',
      language: 'Language',
      profile: 'Profile',
    },
    languages: { en: 'English', 'zh-CN': '简体中文' },
    profile: {
      changePassword: 'Change Password',
      logout: 'Log out',
      about: 'About',
      releaseNotes: 'Release Notes',
      signedInAs: 'Signed in as %{loginId}',
    },
    contact: {
      title: 'Contact Us',
      text: 'Questions about an order, a kit or your account? Our Client Services team is here to help.',
      email: 'E-mail',
      phone: 'Phone',
      address: 'Address',
      hoursLabel: 'Hours',
      hours: 'Client-services hours: Monday-Friday 9 AM-5 PM PST',
      close: 'Close',
    },
    footer: {
      copyright: '© %{year} OncoTRF Diagnostics, Inc. All rights reserved.',
      terms: 'Terms & Conditions',
      privacy: 'Privacy Policy',
    },
    about: {
      title: 'About',
      build: 'Build',
      version: 'Version',
      mode: 'Mode',
      updatedOn: 'Updated On',
    },
    releaseNotes: {
      title: 'Release Notes',
      empty: 'No release notes yet.',
      version: 'Version %{version}',
      updatedOn: 'Released %{date}',
    },
    login: {
      title: 'Sign in to the Clinical Portal',
      subtitle: 'Order and track genomic cancer tests',
      username: 'Username',
      password: 'Password',
      showPassword: 'Show password',
      hidePassword: 'Hide password',
      saveUsername: 'Save Username',
      forgot: 'Forgot Password?',
      submit: 'Login',
      features: {
        order: 'Order NeXT Dx and NeXT Personal Dx tests electronically',
        track: 'Follow kits, samples and reports as they move through the lab',
        message: 'Reach our Client Services team securely from any screen',
      },
      agreement: 'By signing in, you agree to the',
      agreementEnd: '.',
      and: 'and the',
      failed: MSG.authFailed,
      locked: MSG.locked,
    },
    forgot: {
      title: 'Forgot Password',
      text: 'Enter the e-mail address of your account and we will send you a link to reset your password.',
      email: 'E-mail',
      reset: 'Reset Password',
      cancel: 'Cancel',
      sent: MSG.resetEmailSent,
      failed: MSG.resetEmailFailed,
      contactIt: MSG.contactIt,
      help: 'Need help? Contact Client Services at %{phone} or %{email}.',
      back: 'Back to Login',
    },
    reset: {
      title: 'Set a New Password',
      text: 'Choose a new password for your account.',
      missingToken: 'This password link is invalid or has expired. Request a new one from the sign-in page.',
      submit: 'Set Password',
      done: 'Your password has been set. You can now sign in with it.',
      back: 'Back to Login',
    },
    password: {
      title: 'Change Password',
      old: 'Old Password',
      new: 'New Password',
      confirm: 'Confirm Password',
      submit: 'Change Password',
      cancel: 'Cancel',
      rules: {
        title: 'Your password must have:',
        length: 'At least 8 characters',
        digit: 'At least one number',
        upper: 'At least one upper-case letter',
        lower: 'At least one lower-case letter',
        match: 'New password and confirmation match',
      },
      ok: MSG.changePasswordOk,
      failed: MSG.changePasswordFailed,
    },
    maintenance: {
      screen: 'The Clinical Portal is undergoing scheduled maintenance. Please check back soon.',
      download: 'Download TRF Document',
      until: 'Expected back: %{end}',
      banner:
        'Scheduled maintenance on %{day} from %{start} to %{end}. The Clinical Portal will be unavailable during this time.',
      loggedOut: 'You have been signed out for scheduled maintenance.',
    },
    tac: {
      title: 'Provider & Sponsor Terms of Use',
      intro:
        'The Clinical Portal is provided to healthcare providers, their authorized staff and study sponsors for ordering genomic cancer tests and following their results. By using the portal, you certify that:',
      items: {
        personal:
          'Your account is personal to you. You will not share your username or password with anyone, or let anyone else use the portal under your account.',
        confidential:
          'You will keep confidential all patient information and results you see in the portal, and use them only for the care of your patients or for the study you are authorized for.',
        hipaa:
          'You will comply with HIPAA and with all other applicable federal and state privacy and security laws when you access, use or disclose information from the portal.',
        report:
          'You will report at once to Client Services any actual or suspected compromise of your account or of patient information.',
        abuse:
          'You understand that misuse of the portal may lead to the suspension or termination of your access, and to any other action the law allows.',
        download:
          'You will download or print information from the portal only as needed for patient care or the study, and will store and dispose of it securely.',
      },
      contact: 'Questions about these terms? Call %{phone} or write to %{email}.',
      back: 'Back',
    },
    pages: {
      welcome: 'Welcome back, %{name}!',
      homeText: 'Use the menu above to order tests, follow their progress and manage your account.',
      cards: {
        orders: 'Create, sign and follow requisitions',
        patients: 'Find patients and their tests',
        kits: 'Request and track sample kits',
        tests: 'Follow every test from sample to report',
        billing: 'Review and submit billing cases',
        messages: 'Talk with the lab about an order',
        box: 'Upload sample manifests and documents',
        users: 'Manage portal users and their access',
      },
      comingSoon: 'This screen is on its way.',
      comingSoonText: 'The %{name} screen arrives with a coming release of the Clinical Portal.',
      playground: 'Playground',
      playgroundText: 'A placeholder page.',
      order: 'Order %{id}',
      test: 'Test %{id}',
      patient: 'Patient %{id}',
    },
    error: { generic: MSG.generic },
  },
};

type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
/** The shape every language's texts follow (same keys as English). */
export type AppMessages = Texts<typeof appEn>;
