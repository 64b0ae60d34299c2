import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

/** dayjs in Chinese (month and week names of the date pickers); imported by the pages that show dates. */
dayjs.locale('zh-cn');
